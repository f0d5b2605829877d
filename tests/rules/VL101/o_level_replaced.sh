# from 0.13 `-O.mode=3` is the optimization level `.mode=3`: refused at start-up when it is the
# last level given, replaced (a warning, safely removed) when a later -O or --optimization-level follows
# test-expect: VL101 5 warning
# test-expect: VL101 6 error
vllm serve m -O.mode=3 -O=2
vllm serve m -O=2 -O.mode=3
vllm serve m -O.level=3 --optimization-level 3
