# the parser takes any JSON; the config field start-up hands it to takes an object of lists
vllm serve m --custom-histogram-buckets 2
vllm serve m --custom-histogram-buckets '{"ttft": [0.1, 1]}'
vllm serve m --custom-histogram-buckets None
vllm serve m --custom-histogram-buckets 2 --custom-histogram-buckets '{}'
# the parser's choices hold comma forms the field's list of Literals refuses at start-up
vllm serve m --collect-detailed-traces model,worker
vllm serve m --collect-detailed-traces model worker
vllm serve m --collect-detailed-traces all worker,model
# each value of the object is a list of numbers
vllm serve m --custom-histogram-buckets '{"ttft": 1}'
vllm serve m --custom-histogram-buckets '{"ttft": ["a"]}'
