# removed after 0.10.0; a recorded no-op when it went, so the fix deletes it
vllm serve m --swap-space 4 --port 8000
