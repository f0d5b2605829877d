# --reasoning-effort-map: validate_parsed_serve_args wants an object of strings keyed by the release's efforts
vllm serve m --reasoning-effort-map '{"extreme": "max"}'
vllm serve m --reasoning-effort-map '{"high": 1}'
vllm serve m --reasoning-effort-map '["high"]'
vllm serve m --reasoning-effort-map.hgih x
vllm serve m --reasoning-effort-map '{"high": "max", "low": "min"}'
vllm serve m --reasoning-effort-map.high x
vllm serve m --reasoning-effort-map null
