// A Pulumi program deploying vLLM's image on Kubernetes; the model is a constant of the file.
import * as k8s from '@pulumi/kubernetes';

const model = 'facebook/opt-125m';

new k8s.apps.v1.Deployment('vllm', {
  spec: {
    selector: { matchLabels: { app: 'vllm' } },
    template: {
      metadata: { labels: { app: 'vllm' } },
      spec: {
        containers: [
          {
            name: 'vllm',
            image: 'vllm/vllm-openai:v0.27.1',
            args: [
              '--model', model,
              '--swap-space=4', // CPU swap space, GiB
              '--max-model-len=4096',
              /* '--enforce-eager', */
            ],
            env: [{ name: 'VLLM_USE_V1', value: '1' }],
            resources: { limits: { 'nvidia.com/gpu': '1' } },
          },
        ],
      },
    },
  },
});
