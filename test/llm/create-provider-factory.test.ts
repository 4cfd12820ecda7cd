import { loadConfig } from '../../server/load-config.js';
import { createProviderFactory } from '../../llm/create-provider-factory.js';
import { startFakeLlm, type FakeLlm } from '../fakes/fake-llm-server.js';
import { request, TASK } from './support/provider-fixtures.js';

let llm: FakeLlm;
beforeAll(async () => {
  llm = await startFakeLlm();
});
afterEach(() => llm.reset());
afterAll(() => llm.close());

const SERVICE_OPENAI = 'sk-service-openai-key-1111';
const SERVICE_ANTHROPIC = 'sk-ant-service-key-2222';
const STAGE_KEY = 'sk-stage-override-3333';

function factoryFor(env: Record<string, string>) {
  const config = loadConfig({ OPENAI_BASE_URL: llm.openaiBaseUrl, ANTHROPIC_BASE_URL: llm.anthropicBaseUrl, ...env });
  return createProviderFactory(config.providers, { maxRetries: 0 });
}

describe('provider factory', () => {
  it('returns no provider when neither the service nor the stage has a key', () => {
    const factory = factoryFor({});
    expect(factory('openai')).toBeUndefined();
    expect(factory('anthropic')).toBeUndefined();
  });

  it('uses the service key from the configuration when the stage has none', async () => {
    const factory = factoryFor({ OPENAI_API_KEY: SERVICE_OPENAI, ANTHROPIC_API_KEY: SERVICE_ANTHROPIC });
    llm.script({ text: 'a' }, { text: 'b' });
    await factory('openai')!.complete(request('gpt-4o-mini', [{ role: 'user', content: TASK }]));
    await factory('anthropic')!.complete(request('claude-3-5-haiku-latest', [{ role: 'user', content: TASK }]));
    expect(llm.requests.map((r) => [r.api, r.headers.authorization])).toEqual([
      ['openai', `Bearer ${SERVICE_OPENAI}`],
      ['anthropic', `Bearer ${SERVICE_ANTHROPIC}`],
    ]);
  });

  it.each(['openai', 'anthropic'] as const)('sends the stage override key to %s instead of the service key', async (name) => {
    const factory = factoryFor({ OPENAI_API_KEY: SERVICE_OPENAI, ANTHROPIC_API_KEY: SERVICE_ANTHROPIC });
    llm.script({ text: 'ok' });
    const provider = factory(name, STAGE_KEY);
    expect(provider?.name).toBe(name);
    await provider!.complete(request('some-model', [{ role: 'user', content: TASK }]));
    expect(llm.requests[0]).toMatchObject({ api: name, headers: { authorization: `Bearer ${STAGE_KEY}` } });
  });

  it('is pointed at the fake by llm.env(), as integration tests configure the service', async () => {
    const config = loadConfig(llm.env('sk-from-env-helper-4444'));
    llm.script({ text: 'ok' });
    await createProviderFactory(config.providers, { maxRetries: 0 })('anthropic')!.complete(
      request('m', [{ role: 'user', content: TASK }]),
    );
    expect(llm.requests[0].headers.authorization).toBe('Bearer sk-from-env-helper-4444');
  });

  it('builds a provider from an override alone, without a service key', () => {
    expect(factoryFor({})('anthropic', STAGE_KEY)?.name).toBe('anthropic');
  });
});
