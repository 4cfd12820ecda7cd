import type { ProviderFactory } from '../core/agent/provider.js';
import { createAnthropicProvider } from './anthropic-provider.js';
import { createOpenAiProvider } from './openai-provider.js';

interface ProviderEndpoint {
  apiKey?: string;
  baseUrl?: string;
}

/** The provider part of the configuration (Config['providers'] fits it). */
export interface ProviderSettings {
  openai: ProviderEndpoint;
  anthropic: ProviderEndpoint;
}

export interface ProviderFactoryOptions {
  maxRetries?: number;
  timeoutMs?: number;
}

/**
 * Builds providers per execution: a stage's own key wins over the service's key; with neither,
 * there is no provider and the run fails with provider_not_configured.
 */
export function createProviderFactory(settings: ProviderSettings, options: ProviderFactoryOptions = {}): ProviderFactory {
  return (provider, apiKeyOverride) => {
    const endpoint: ProviderEndpoint | undefined = settings[provider];
    const apiKey = apiKeyOverride || endpoint?.apiKey;
    if (!endpoint || !apiKey) return undefined;
    const common = { apiKey, baseURL: endpoint.baseUrl, maxRetries: options.maxRetries, timeoutMs: options.timeoutMs };
    return provider === 'openai' ? createOpenAiProvider(common) : createAnthropicProvider(common);
  };
}
