/** The channels an agent has, one record of each. */
export const CHANNEL_TYPES = [
  'webchat',
  'whatsapp',
  'instagram',
  'messenger',
  'telephony',
] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];
