# 0.27.1 reads `serve --model m ...` as `serve m ...`: a `--` right after it ends the positional model
# (accepted, real parsers of 0.27.0 and 0.34.0); after another option it is left over, and so is a
# word after it
vllm serve --model my-model --
vllm serve --model=my-model --
vllm serve --model my-model -- extra
vllm serve --port 8000 --model my-model --
