# from 0.25.0 per-request metrics need the engine statistics that --disable-log-stats turns off
# test-target: 0.27.1
# test-expect: VL112 4 error
vllm serve m --enable-per-request-metrics --disable-log-stats
vllm serve m --enable-per-request-metrics
vllm serve m --no-enable-per-request-metrics --disable-log-stats
