# A start script written by a heredoc with an unquoted delimiter: the shell writing it turns
# "\$@" into "$@", the forwarded arguments, not a word left over (silent)
FROM vllm/vllm-openai:v0.27.1
RUN cat > /start.sh <<EOF
#!/bin/bash
exec vllm serve org/model --port 8000 "\$@"
EOF
RUN chmod +x /start.sh
ENTRYPOINT ["/start.sh"]
