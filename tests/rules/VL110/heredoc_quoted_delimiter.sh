# test-expect: VL110 6 error
# With a quoted delimiter (<<'EOF') the body is written verbatim: the start script holds "\$@",
# the literal word `$@`, which no option or positional takes (the heredoc_escaped_args case
# writes "$@" instead)
cat > /start.sh <<'EOF'
vllm serve org/model --port 8000 "\$@"
EOF
cat > /start2.sh <<EOF
vllm serve org/model --port 8000 "\$@"
EOF
