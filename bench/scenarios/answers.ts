import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { AppModule } from '@/app.module';
import { configureApp } from '@/app.setup';
import { loadAppConfig } from '@/config/app-config';
import { AgentEntity } from '@/modules/agents/entities/agent.entity';
import { KnowledgeOwner, KnowledgeSearch } from '@/modules/replies/knowledge-search';
import { ApiClient } from '../../test/support/api-client';
import { randomApiKey } from '../../test/support/keys';
import { pollUntil } from '../../test/support/wait';
import {
  AnswerBusiness,
  ANSWER_BUSINESSES,
  AnswerQuestion,
  AnswerSource,
} from '../fixtures/answers-businesses';
import { ANSWER_DEV } from '../fixtures/answers-dev';
import { ANSWER_HOLDOUT } from '../fixtures/answers-holdout';
import { ANSWER_HOLDOUT_2 } from '../fixtures/answers-holdout-2';
import { progress } from '../lib/log';
import { Sizes } from '../lib/options';
import { ScenarioLine, scenarioLine } from '../lib/report';
import { round, summarize } from '../lib/stats';
import { TARGETS } from '../targets';

const LOAD_PASSAGES = 10_000;
const PARAGRAPHS_PER_ITEM = 100;
const TIMED_ROUNDS = { quick: 3, full: 10 };
const TOP_PASSAGES = 3;

interface Agent {
  business: AnswerBusiness;
  owner: KnowledgeOwner;
}

/** The businesses' pages, served on 127.0.0.1 as their own sites would serve them. */
async function servePages(): Promise<{ server: Server; origin: string }> {
  const pages = new Map(ANSWER_BUSINESSES.map((b) => [b.page.path, b.page.html]));
  const server = createServer((req, res) => {
    const html = pages.get(req.url ?? '');
    res.writeHead(html ? 200 : 404, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(html ?? 'Not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function data<T>(api: ApiClient, method: string, path: string, body?: unknown): Promise<T> {
  const res = await api.request(method, path, body);
  if (res.status >= 300) {
    throw new Error(`${method} ${path} answered ${res.status}: ${res.text}`);
  }
  return (res.body as { data: T }).data;
}

/** One agent per business: its workflow's FAQ, its knowledge text, and its page (fetched). */
async function seed(
  api: ApiClient,
  dataSource: DataSource,
  business: AnswerBusiness,
  site: string,
): Promise<Agent> {
  const workflow = await data<{ id: string; faq: Array<{ question: string; answer: string }> }>(
    api,
    'POST',
    '/workflows',
    { name: business.name, faq: business.faq },
  );
  const agent = await data<{ id: string }>(api, 'POST', '/agents', {
    workflow_id: workflow.id,
    name: `${business.name} assistant`,
    description: `Answers the customers of ${business.name}`,
    business_name: business.name,
  });
  const base = `/agents/${agent.id}/knowledge_bases`;
  await data(api, 'POST', base, { type: 'text', name: 'About us', content: business.text });
  const page = await data<{ id: string }>(api, 'POST', base, {
    type: 'url',
    name: 'Web page',
    url: `${site}${business.page.path}`,
  });
  const { value } = await pollUntil(
    () => data<{ status: string; error: string | null }>(api, 'GET', `${base}/${page.id}`),
    (kb) => kb.status !== 'pending',
    20_000,
    50,
  );
  if (value.status !== 'ready') {
    throw new Error(`${business.name}'s page did not become ready: ${value.error}`);
  }
  const entity = await dataSource.getRepository(AgentEntity).findOneByOrFail({ id: agent.id });
  return { business, owner: { agent: entity, workflow } };
}

/** Paragraphs of a hardware store's catalogue: the load that brings an agent to 10,000 passages. */
function catalogue(item: number): string {
  const products = ['drill', 'ladder', 'paint roller', 'garden hose', 'tile cutter', 'toolbox'];
  const colours = ['red', 'green', 'grey', 'blue', 'black'];
  const days = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
  return Array.from({ length: PARAGRAPHS_PER_ITEM }, (_, i) => {
    const n = item * PARAGRAPHS_PER_ITEM + i;
    const product = products[n % products.length];
    return (
      `Article ${n}: the ${colours[n % colours.length]} ${product} model ${n * 7} costs ` +
      `${(n % 90) + 10} euros. It is in stock at the branch on ${days[n % days.length]}s, ` +
      `delivery takes ${(n % 5) + 1} working days and returns are accepted within ${(n % 3) * 15 + 14} days.`
    );
  }).join('\n\n');
}

async function passageCount(dataSource: DataSource, agentId: string): Promise<number> {
  const [row] = await dataSource.query<Array<{ n: number }>>(
    'SELECT COUNT(*) AS "n" FROM "knowledge_passages" WHERE "agent_id" = ?',
    [agentId],
  );
  return Number(row.n);
}

function holds(text: string | undefined, fact: string): boolean {
  const normal = (s: string) => s.toLowerCase().replace(/\s+/g, ' ');
  return text !== undefined && normal(text).includes(normal(fact));
}

interface Tally {
  answerable: number;
  right: number;
  wrong: number;
  inTop: number;
  unanswerable: number;
  unanswerableAnswered: number;
  bySource: Record<AnswerSource, { asked: number; right: number }>;
}

function emptyTally(): Tally {
  return {
    answerable: 0,
    right: 0,
    wrong: 0,
    inTop: 0,
    unanswerable: 0,
    unanswerableAnswered: 0,
    bySource: {
      kb: { asked: 0, right: 0 },
      faq: { asked: 0, right: 0 },
      url: { asked: 0, right: 0 },
    },
  };
}

/** Asks an agent one set of questions, counting into `tally`; misses go to `misses`. */
async function ask(
  search: KnowledgeSearch,
  owner: KnowledgeOwner,
  set: { questions: AnswerQuestion[]; unanswerable: string[] },
  tally: Tally,
  misses: string[],
): Promise<void> {
  for (const question of set.questions) {
    const answer = await search.bestAnswer(owner, question.q);
    const top = await search.topPassages(owner, question.q, TOP_PASSAGES);
    tally.answerable++;
    tally.bySource[question.source].asked++;
    if (top.some((passage) => holds(passage.text, question.fact))) {
      tally.inTop++;
    }
    if (answer && holds(answer.text, question.fact)) {
      tally.right++;
      tally.bySource[question.source].right++;
    } else {
      if (answer) {
        tally.wrong++;
      }
      misses.push(`${answer ? 'wrong' : 'handed off'}: ${question.q}`);
    }
  }
  for (const question of set.unanswerable) {
    tally.unanswerable++;
    if (await search.bestAnswer(owner, question)) {
      tally.unanswerableAnswered++;
      misses.push(`answered the unanswerable: ${question}`);
    }
  }
}

/**
 * Knowledge answers: each business's questions go to the agent's knowledge as the reply engine
 * asks it without a model (`bestAnswer`: the best passage when relevant enough, else a hand-off)
 * and with one (`topPassages`: the passages a model would read). Then one agent is loaded to
 * 10,000 passages and the same questions are timed.
 */
export async function answers(sizes: Sizes, workDir: string): Promise<ScenarioLine> {
  const { server, origin: site } = await servePages();
  const key = randomApiKey();
  const config = loadAppConfig({
    DATABASE_URL: `sqlite:${join(workDir, 'answers.sqlite')}`,
    CONSOLE_BOOTSTRAP_KEY: key,
    OUTBOUND_ALLOW_PRIVATE: 'true',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_MAX: '100000000',
  });
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
    bodyParser: false,
    logger: false,
  });
  configureApp(app);
  await app.listen(0, '127.0.0.1');
  try {
    const api = new ApiClient(
      `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`,
      key,
    );
    const dataSource = app.get(DataSource);
    const search = app.get(KnowledgeSearch);
    progress('answers: seeding three businesses through the API');
    const agents: Agent[] = [];
    for (const business of ANSWER_BUSINESSES) {
      agents.push(await seed(api, dataSource, business, site));
    }

    const main = emptyTally();
    const holdout = emptyTally();
    const misses: string[] = [];
    const holdoutMisses: string[] = [];
    const holdout2 = emptyTally();
    const holdout2Misses: string[] = [];
    const dev = emptyTally();
    const devMisses: string[] = [];
    for (const { business, owner } of agents) {
      await ask(search, owner, business, main, misses);
      await ask(search, owner, ANSWER_HOLDOUT[business.name], holdout, holdoutMisses);
      await ask(search, owner, ANSWER_DEV[business.name], dev, devMisses);
      await ask(search, owner, ANSWER_HOLDOUT_2[business.name], holdout2, holdout2Misses);
    }
    for (const miss of misses) {
      progress(`answers: ${miss}`);
    }
    for (const miss of holdoutMisses) {
      progress(`answers (holdout): ${miss}`);
    }
    for (const miss of devMisses) {
      progress(`answers (dev): ${miss}`);
    }
    for (const miss of holdout2Misses) {
      progress(`answers (holdout 2): ${miss}`);
    }
    const { bySource, answerable, right, wrong, inTop, unanswerable, unanswerableAnswered } = main;
    const answersGiven = right + wrong + unanswerableAnswered;

    const loaded = agents[0];
    const base = `/agents/${loaded.owner.agent.id}/knowledge_bases`;
    progress(`answers: loading ${loaded.business.name}'s agent to ${LOAD_PASSAGES} passages`);
    for (
      let item = 0;
      (await passageCount(dataSource, loaded.owner.agent.id)) < LOAD_PASSAGES;
      item++
    ) {
      await data(api, 'POST', base, {
        type: 'text',
        name: `Catalogue ${item}`,
        content: catalogue(item),
      });
    }
    const passages = await passageCount(dataSource, loaded.owner.agent.id);
    const questions = [
      ...loaded.business.questions.map((q) => q.q),
      ...loaded.business.unanswerable,
    ];
    const timings: number[] = [];
    // Searches run on the event loop (better-sqlite3 is synchronous): the CPU time they take is
    // theirs, and tells the cost apart from waiting on a busy machine.
    const cpuTimings: number[] = [];
    const slowest = new Map<string, number>();
    let stillRight = 0;
    for (let round = 0; round < TIMED_ROUNDS[sizes.mode]; round++) {
      for (const question of questions) {
        const started = performance.now();
        const cpuBefore = process.cpuUsage();
        const answer = await search.bestAnswer(loaded.owner, question);
        const elapsed = performance.now() - started;
        const cpu = process.cpuUsage(cpuBefore);
        cpuTimings.push((cpu.user + cpu.system) / 1000);
        timings.push(elapsed);
        slowest.set(question, Math.max(slowest.get(question) ?? 0, elapsed));
        const expected = loaded.business.questions.find((q) => q.q === question);
        if (round === 0 && expected && answer && holds(answer.text, expected.fact)) {
          stillRight++;
        }
      }
    }
    const latency = summarize(timings.slice(questions.length));
    const cpuLatency = summarize(cpuTimings.slice(questions.length));
    for (const [question, ms] of [...slowest].sort((a, b) => b[1] - a[1]).slice(0, 5)) {
      progress(`answers: slowest at ${passages} passages: ${ms.toFixed(1)} ms for "${question}"`);
    }
    const rate = (n: number, of: number) => round(of > 0 ? n / of : null, 3);
    const falseRate = (t: Tally) =>
      rate(t.wrong + t.unanswerableAnswered, t.right + t.wrong + t.unanswerableAnswered);
    return scenarioLine(
      'answers',
      {
        mode: sizes.mode,
        businesses: agents.length,
        questions: answerable,
        unanswerable_questions: unanswerable,
        answer_rate: rate(right, answerable),
        false_answer_rate: rate(wrong + unanswerableAnswered, answersGiven),
        holdout_questions: holdout.answerable,
        holdout_unanswerable_questions: holdout.unanswerable,
        answer_rate_holdout: rate(holdout.right, holdout.answerable),
        false_answer_rate_holdout: falseRate(holdout),
        dev_questions: dev.answerable,
        dev_unanswerable_questions: dev.unanswerable,
        dev_answer_rate: rate(dev.right, dev.answerable),
        dev_false_answer_rate: falseRate(dev),
        holdout2_questions: holdout2.answerable,
        holdout2_unanswerable_questions: holdout2.unanswerable,
        answer_rate_holdout2: rate(holdout2.right, holdout2.answerable),
        false_answer_rate_holdout2: falseRate(holdout2),
        unanswerable_answered_rate: rate(unanswerableAnswered, unanswerable),
        wrong_answer_rate: rate(wrong, answerable),
        top3_recall: rate(inTop, answerable),
        by_source: {
          kb: rate(bySource.kb.right, bySource.kb.asked),
          faq: rate(bySource.faq.right, bySource.faq.asked),
          url: rate(bySource.url.right, bySource.url.asked),
        },
        passages,
        answer_rate_at_load: rate(stillRight, loaded.business.questions.length),
        p50_ms: round(latency.p50, 3),
        p99_ms: round(latency.p99, 3),
        retrieval_p50_ms: round(latency.p50, 3),
        retrieval_p99_ms: round(latency.p99, 3),
        retrieval_cpu_p50_ms: round(cpuLatency.p50, 3),
        retrieval_cpu_p99_ms: round(cpuLatency.p99, 3),
        load_average: round(loadavg()[0], 1),
        timed_searches: latency.count,
      },
      TARGETS.answers,
    );
  } finally {
    await app.close();
    await new Promise((resolve) => server.close(resolve));
  }
}
