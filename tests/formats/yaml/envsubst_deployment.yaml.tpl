# A manifest template (.yaml.tpl) that a deploy script fills with envsubst: read as YAML, its
# ${NAME} placeholders unknown values (never judged), the rest checked; a line holding only a
# placeholder (a block the script renders) is no YAML of its own.
apiVersion: apps/v1
kind: Deployment
metadata:
  name: vllm
  namespace: ${NAMESPACE}
spec:
  replicas: 1
  template:
    spec:
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.27.1
          resources:
            limits:
${RESOURCE_LIMITS}
          command: ["python3", "-m", "vllm.entrypoints.openai.api_server"]
          args:
            - "--model"
            - "${MODEL_ID}"
            - "--tensor-parallel-size"
            - "${TP_SIZE}"
            - "--swap-space"
            - "4"
