#!/usr/bin/env bash
# install a systemd unit for the inference server
pip install vllm==0.9.0

cat > /etc/systemd/system/vllm.service <<EOF
[Unit]
Description=vLLM
After=network-online.target

[Service]
ExecStart=/opt/venv/bin/vllm serve deepseek-ai/DeepSeek-R1-Distill-Qwen-7B --enable-reasoning --reasoning-parser deepseek_r1
Restart=always

[Install]
WantedBy=multi-user.target
EOF

bash <<'RUN'
vllm serve deepseek-ai/DeepSeek-R1-Distill-Qwen-7B \
  --enable-reasoning \
  --reasoning-parser deepseek_r1 \
  --port 8001
RUN
