import { Injectable } from '@nestjs/common';
import { AppConfig } from '@/config/app-config';
import { Errors } from '@/common/http/api-error';
import { Principal } from '@/common/http/principal';
import { AgentsService } from '@/modules/agents/agents.service';
import { ConversationReportsRepository } from './conversation-reports.repository';
import { daysSpanned, reportDays } from '@/common/time/calendar-days';
import { ConversationReportDto, ConversationReportQueryDto } from './report.dto';

/** The longest period a report covers, in days. */
export const MAX_REPORT_DAYS = 92;

/** The team's conversation report over whole days of its time zone (TEAM_TIME_ZONE). */
@Injectable()
export class ConversationReports {
  private readonly timeZone: string;

  constructor(
    private readonly reports: ConversationReportsRepository,
    private readonly agents: AgentsService,
    config: AppConfig,
  ) {
    this.timeZone = config.reports.timeZone;
  }

  async report(
    caller: Principal,
    query: ConversationReportQueryDto,
  ): Promise<ConversationReportDto> {
    const span = daysSpanned(query.from, query.to);
    if (span < 1) {
      throw Errors.validation(['to: must be on or after from']);
    }
    if (span > MAX_REPORT_DAYS) {
      throw Errors.validation([`to: a report covers at most ${MAX_REPORT_DAYS} days`]);
    }
    const scope = await this.agents.scopeFor(caller, query.agent_id);
    const days = reportDays(query.from, query.to, this.timeZone);
    const starts = days[0].starts;
    const ends = days[days.length - 1].ends;
    const totals = await this.reports.totals(scope, starts, ends);
    return {
      ...totals,
      median_first_response_s: await this.reports.medianFirstResponse(scope, starts, ends),
      median_resolution_s: await this.reports.medianResolution(scope, starts, ends),
      by_day: await this.reports.byDay(scope, days),
    };
  }

}
