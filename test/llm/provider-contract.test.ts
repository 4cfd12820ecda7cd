import { createAnthropicProvider } from '../../llm/anthropic-provider.js';
import { createOpenAiProvider } from '../../llm/openai-provider.js';
import { providerContract } from './support/provider-contract.js';

providerContract({
  api: 'openai',
  model: 'gpt-4o-mini',
  key: 'sk-test-openai-Zq81distinctive5521',
  wrongKey: 'sk-wrong-key-Hh71distinctive0042',
  create: ({ apiKey, baseURL }) => createOpenAiProvider({ apiKey, baseURL, maxRetries: 0 }),
  baseUrlOf: (llm) => llm.openaiBaseUrl,
  unreachableBaseUrl: 'http://127.0.0.1:1/v1',
  troubleStatuses: [500, 429, 503],
});

providerContract({
  api: 'anthropic',
  model: 'claude-3-5-haiku-latest',
  key: 'sk-ant-test-Pw44distinctive9137',
  wrongKey: 'sk-ant-wrong-Kk30distinctive7781',
  create: ({ apiKey, baseURL }) => createAnthropicProvider({ apiKey, baseURL, maxRetries: 0 }),
  baseUrlOf: (llm) => llm.anthropicBaseUrl,
  unreachableBaseUrl: 'http://127.0.0.1:1',
  troubleStatuses: [500, 429, 529],
});
