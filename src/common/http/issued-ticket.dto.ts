import { ApiProperty } from '@nestjs/swagger';

/** A stream ticket, as POST …/stream-ticket answers it (the staff's and a web-chat visitor's). */
export class IssuedTicketDto {
  @ApiProperty({ description: 'Pass as ?ticket= to open the stream; works once' }) ticket: string;
  @ApiProperty({ description: 'Seconds the ticket stays valid if unused', example: 60 })
  expires_in: number;
}
