// An AWS CDK stack (JavaScript): an ECS task's container from vLLM's image, options every release in
// the database accepts.
const ecs = require('aws-cdk-lib/aws-ecs');

function addVllm(taskDefinition) {
  taskDefinition.addContainer('vllm', {
    image: ecs.ContainerImage.fromRegistry('vllm/vllm-openai:v0.27.1'),
    command: ['--max-model-len', '2048', '--gpu-memory-utilization', '0.9'],
    environment: { HF_HOME: '/data/hf' },
    gpuCount: 1,
  });
}

module.exports = { addVllm };
