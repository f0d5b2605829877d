# A start script written at build time: `echo '...\n...' > /app/start.sh` (Docker joins the `\`
# lines, the script's `\n` become its line breaks) and `printf`: the launch in it is read where it
# is written, and --swap-space (refused by 0.27.1) is removed there.
FROM vllm/vllm-openai:v0.27.1
RUN echo '#!/bin/bash\n\
MODEL=${MODEL_NAME:-org/model}\n\
echo "Starting with $MODEL"\n\
/opt/venv/bin/vllm serve \
    "$MODEL" \
    --swap-space 4 \
    --port 8000\n' > /app/start.sh && \
    chmod +x /app/start.sh
RUN printf '#!/bin/sh\nexec vllm serve org/other --swap-space 4 --port 8001\n' > /start2.sh
RUN echo "vllm serve is started by /app/start.sh" && echo 'no vllm serve here'
ENTRYPOINT ["/app/start.sh"]
