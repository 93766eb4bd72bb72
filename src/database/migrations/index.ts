import { SecretBox } from '@/config/secret-box';
import { Platform1732262400000 } from './1732262400000-platform';
import { Agents1732348800000 } from './1732348800000-agents';
import { Conversations1732435200000 } from './1732435200000-conversations';
import { exactShapesMigration } from './1732521600000-exact-shapes';
import { KnowledgeIndex1732608000000 } from './1732608000000-knowledge-index';
import { ActionRuns1732694400000 } from './1732694400000-action-runs';
import { Webhooks1732780800000 } from './1732780800000-webhooks';
import { PhoneNumbers1732867200000 } from './1732867200000-phone-numbers';
import { KnowledgeTerms1732953600000 } from './1732953600000-knowledge-terms';
import { KnowledgeFaqKey1733040000000 } from './1733040000000-knowledge-faq-key';
import { ActionRunLeases1733043600000 } from './1733043600000-action-run-leases';
import { JobLeases1733126400000 } from './1733126400000-job-leases';
import { IdempotencyLeaseToken1733130000000 } from './1733130000000-idempotency-lease-token';
import { ReplyJobLeases1733137200000 } from './1733137200000-reply-job-leases';
import { ApiKeyAgents1733141100000 } from './1733141100000-api-key-agents';
import { Contacts1733150400000 } from './1733150400000-contacts';
import { MessageAuthors1733146800000 } from './1733146800000-message-authors';
import { InboxStatus1733154000000 } from './1733154000000-inbox-status';
import { PauseAnnounced1733157600000 } from './1733157600000-pause-announced';
import { TeamQueue1733162400000 } from './1733162400000-team-queue';
import { ConversationReports1733166000000 } from './1733166000000-conversation-reports';
import { InboxListIndexes1733169600000 } from './1733169600000-inbox-list-indexes';
import { DropConversationContactColumns1733173200000 } from './1733173200000-drop-conversation-contact-columns';
import { ChannelConnections1733176800000 } from './1733176800000-channel-connections';
import { ConversationLabels1733180400000 } from './1733180400000-conversation-labels';
import { ChannelSends1733184000000 } from './1733184000000-channel-sends';
import { ChannelInbound1733187600000 } from './1733187600000-channel-inbound';
import { TestNumber1733191200000 } from './1733191200000-test-number';
import { InboxListIndexPages1733194800000 } from './1733194800000-inbox-list-index-pages';
import { ResponseMappingFields1733198400000 } from './1733198400000-response-mapping-fields';
import { ActionRunCustomerText1733202000000 } from './1733202000000-action-run-customer-text';
import { ModelCalls1733205600000 } from './1733205600000-model-calls';
import { TeamModelSettings1733209200000 } from './1733209200000-team-model-settings';
import { InboundSeenAge1733212800000 } from './1733212800000-inbound-seen-age';

/** Every migration, oldest first; `secretBox` opens and seals the stored secrets some rewrite. */
export function migrations(secretBox: SecretBox): Array<new () => unknown> {
  return [
    Platform1732262400000,
    Agents1732348800000,
    Conversations1732435200000,
    exactShapesMigration(secretBox),
    KnowledgeIndex1732608000000,
    ActionRuns1732694400000,
    Webhooks1732780800000,
    PhoneNumbers1732867200000,
    KnowledgeTerms1732953600000,
    KnowledgeFaqKey1733040000000,
    ActionRunLeases1733043600000,
    JobLeases1733126400000,
    IdempotencyLeaseToken1733130000000,
    ReplyJobLeases1733137200000,
    ApiKeyAgents1733141100000,
    MessageAuthors1733146800000,
    Contacts1733150400000,
    InboxStatus1733154000000,
    PauseAnnounced1733157600000,
    TeamQueue1733162400000,
    ConversationReports1733166000000,
    InboxListIndexes1733169600000,
    DropConversationContactColumns1733173200000,
    ChannelConnections1733176800000,
    ConversationLabels1733180400000,
    ChannelSends1733184000000,
    ChannelInbound1733187600000,
    TestNumber1733191200000,
    InboxListIndexPages1733194800000,
    ResponseMappingFields1733198400000,
    ActionRunCustomerText1733202000000,
    ModelCalls1733205600000,
    TeamModelSettings1733209200000,
    InboundSeenAge1733212800000,
  ];
}
