import { ApiProperty } from '@nestjs/swagger';

export class IssuedTicketDto {
  @ApiProperty({ description: 'Pass it as ?ticket= to GET /stream, once' }) ticket: string;
  @ApiProperty({ description: 'Seconds it stays valid' }) expires_in: number;
}
