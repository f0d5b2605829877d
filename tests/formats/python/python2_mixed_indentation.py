# A Python 2 launcher indented with tabs and spaces mixed (Python 3 refuses the dedent): the
# commands in its strings are read past it, %-fields and their quotes opaque; --swap-space
# (refused by 0.27.1) is removed in the second.
import os
import sys

def main(model, port, extra):
    if extra:
	os.system("python3 -m vllm.entrypoints.api_server --model='%s' --port %s %s" % (model, port, extra))
      else:
        os.system("python3 -m vllm.entrypoints.api_server --model='%s' --port %s --swap-space 4" % (model, port))

main(sys.argv[1], sys.argv[2], " ".join(sys.argv[3:]))
