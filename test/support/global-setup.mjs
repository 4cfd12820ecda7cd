// Jest loads global setup outside its module mapper; tsx lets it run the TypeScript helpers.
import { register } from 'tsx/esm/api';

register();
const { default: setup } = await import('./global-setup.ts');
export default setup;
