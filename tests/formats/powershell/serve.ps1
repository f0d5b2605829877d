# PowerShell: a backtick continues the line; $env: sets the environment.
$env:VLLM_USE_V1 = "1"
vllm serve facebook/opt-125m `
    --swap-space 4 `
    --port 8000
