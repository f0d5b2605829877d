# from 0.11.0 --enable-log-outputs needs --enable-log-requests (its --no- form turns it off)
# test-target: 0.11.0
# test-expect: VL112 4 error
vllm serve m --enable-log-outputs
vllm serve m --enable-log-requests --enable-log-outputs --no-enable-log-requests
vllm serve m --enable-log-outputs --enable-log-requests
vllm serve m --no-enable-log-outputs
