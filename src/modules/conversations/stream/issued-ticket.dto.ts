import { ApiProperty } from '@nestjs/swagger';

export class IssuedTicketDto {
  @ApiProperty({ description: 'Pass as ?ticket= to open the stream; works once' }) ticket: string;
  @ApiProperty({ description: 'Seconds the ticket stays valid if unused', example: 60 })
  expires_in: number;
}
