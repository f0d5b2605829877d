# A Python 2 script (print statements: Python 3 does not parse it): the shell commands in its
# strings are still read, %-fields opaque, and --swap-space (refused by 0.27.1) is removed there.
import os

model = "org/model"
print "starting", model
os.system("CUDA_VISIBLE_DEVICES=%d python3 -m vllm.entrypoints.api_server --model='%s' %s "
          "--swap-space 4 --port %d &" % (0, model, "--dtype half", 8000))
os.system("vllm serve {0} --swap-space 4".format(model))
print "done"
