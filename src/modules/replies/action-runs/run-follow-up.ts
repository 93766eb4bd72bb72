import { ConversationsService } from '@/modules/conversations/conversations.service';
import { messageActionOf, runLine } from './action-lines';
import { ActionRunEntity } from './entities/action-run.entity';

/**
 * A person decided on a run that waited for approval (or its approved call was cut off): the
 * conversation shows the outcome, and the reply that parked it continues, produced by the reply
 * worker on whichever instance takes it. In the caller's transaction.
 */
export async function followUpDecision(
  conversations: ConversationsService,
  run: ActionRunEntity,
): Promise<void> {
  await conversations.appendActionOutcome(
    run.teamId,
    run.agentId,
    run.conversationId,
    runLine(run),
    messageActionOf(run),
  );
}
