import { register } from 'tsx/esm/api';

register();
const { default: teardown } = await import('./global-teardown.ts');
export default teardown;
