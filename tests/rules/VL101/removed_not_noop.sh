# removed, not a recorded no-op: reported, not deleted
vllm serve m --num-scheduler-steps 8
