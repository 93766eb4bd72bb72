/**
 * Meta's webhooks (WhatsApp Cloud API, Messenger, Instagram): the signature check and the
 * bodies read as bounded, normalized results. Pure: no I/O, never throws on a body.
 */
export { metaSignatureValid, sameSecret } from './meta-signature';
export { parseMessengerNotification } from './messenger-notifications';
export type {
  DeliveryStatus,
  InboundKind,
  InboundMedia,
  InboundMessage,
  ParsedNotification,
  StatusUpdate,
  StatusWatermark,
} from './notification-types';
export { parseWhatsAppNotification, phoneNumberIdOf } from './whatsapp-notifications';
