export { isRecord } from '@plankit/core/internal-unstable';
