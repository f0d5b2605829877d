# A Windows host's venv: the programs are called by path, with their .exe
$env:VLLM_USE_V1 = "1"
C:\venv\Scripts\vllm.exe serve facebook/opt-125m `
  --swap-space 4
& "C:\Program Files\Python311\python.exe" -m vllm.entrypoints.openai.api_server --model facebook/opt-125m --swap-space 4
