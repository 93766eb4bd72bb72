export { isE164 } from '@/common/validation/e164';
