# 0.27.1 moves the word after the first --model to the front and drops --model: an option word there is
# read as that option (accepted, the model slot stays open); at the line's end --model has no word to move
vllm serve --model --port 8000
vllm serve --model --port 8000 my-model
vllm serve --model --model my-model
vllm serve --model
