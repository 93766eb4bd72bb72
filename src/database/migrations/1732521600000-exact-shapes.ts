import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';
import { SecretBox } from '@/config/secret-box';
import { integerColumn, varcharColumn } from './columns';
import { minutesFromText } from './setup-minutes';

type Json = Record<string, unknown>;
type Row = Record<string, unknown>;

const OPTIONAL_FLOW_FIELDS = ['description', 'category', 'priority'];
const OPTIONAL_STEP_FIELDS = ['content', 'action', 'followup'];
const TOOL_SETTINGS = [
  'url_params',
  'body_params',
  'headers_template',
  'body_template',
  'response_mapping',
];

/** `object` without the `keys` that hold null: the old code stored null for what was not sent. */
function withoutNulls(object: Json, keys: string[]): Json {
  return Object.fromEntries(
    Object.entries(object).filter(([key, value]) => !(keys.includes(key) && value === null)),
  );
}

function exactFlow(flow: Json): Json {
  return {
    ...withoutNulls(flow, OPTIONAL_FLOW_FIELDS),
    trigger_keywords: ((flow.trigger_keywords as Json[] | undefined) ?? []).map((keyword) =>
      withoutNulls(keyword, ['weight']),
    ),
    conversation_steps: ((flow.conversation_steps as Json[] | undefined) ?? []).map((step) =>
      withoutNulls(step, OPTIONAL_STEP_FIELDS),
    ),
  };
}

/**
 * The new names of an auth configuration: api_key `{key}` → `{api_key}`; custom `{headers}` →
 * its first header as `{header_name, token}` and the others under `headers`. A custom one
 * without headers sent nothing, so it becomes `none`.
 */
function renamedAuth(authType: string, secrets: Json): { authType: string; secrets: Json } {
  if (authType === 'api_key' && 'key' in secrets) {
    const { key, ...rest } = secrets;
    return { authType, secrets: { ...rest, api_key: key } };
  }
  if (authType === 'custom' && !('header_name' in secrets)) {
    const [first, ...others] = Object.entries((secrets.headers as Json | undefined) ?? {});
    if (!first) {
      return { authType: 'none', secrets: {} };
    }
    return {
      authType,
      secrets: {
        header_name: first[0],
        token: first[1],
        ...(others.length > 0 ? { headers: Object.fromEntries(others) } : {}),
      },
    };
  }
  return { authType, secrets };
}

/** The old shapes of `down`: the reverse of renamedAuth. */
function formerAuth(authType: string, secrets: Json): Json {
  if (authType === 'api_key' && 'api_key' in secrets) {
    const { api_key: key, ...rest } = secrets;
    return { ...rest, key };
  }
  if (authType === 'custom' && 'header_name' in secrets) {
    const headers = (secrets.headers as Json | undefined) ?? {};
    return { headers: { ...headers, [secrets.header_name as string]: secrets.token } };
  }
  return secrets;
}

/** Sets `values` on the row `id` of `table`, as parameters on both engines. */
export async function update(queryRunner: QueryRunner, table: string, id: unknown, values: Row) {
  const columns = Object.keys(values);
  const [sql, parameters] = queryRunner.connection.driver.escapeQueryWithParameters(
    `UPDATE "${table}" SET ${columns.map((column) => `"${column}" = :${column}`).join(', ')} WHERE "id" = :id`,
    { ...values, id },
    {},
  );
  await queryRunner.query(sql, parameters);
}

/**
 * Typed values where text stood, and the shapes clients send: `setup_time` becomes whole minutes,
 * nested workflow objects lose the nulls invented for fields not sent, auth configurations take
 * their new field names (their secrets are opened and sealed again, hence the SecretBox), and
 * custom API tools get the default category.
 */
export function exactShapesMigration(secretBox: SecretBox) {
  const open = (sealed: unknown): Json | null => {
    if (typeof sealed !== 'string') {
      return {};
    }
    try {
      return secretBox.openJson<Json>(sealed);
    } catch {
      // Sealed with another key: unreadable by the service either way, so left as it is.
      return null;
    }
  };

  const rewriteAuth = async (
    queryRunner: QueryRunner,
    table: string,
    row: Row,
    rename: (authType: string, secrets: Json) => { authType: string; secrets: Json },
    extra: (config: Json) => Json = (config) => config,
  ) => {
    const config = JSON.parse(row.config as string) as Json;
    const secrets = open(row.secrets);
    if (!secrets) {
      return;
    }
    const renamed = rename((config.auth_type as string | undefined) ?? 'none', secrets);
    await update(queryRunner, table, row.id, {
      config: JSON.stringify(extra({ ...config, auth_type: renamed.authType })),
      secrets: secretBox.sealJson(renamed.secrets),
    });
  };

  return class ExactShapes1732521600000 implements MigrationInterface {
    name = 'ExactShapes1732521600000';

    async up(queryRunner: QueryRunner): Promise<void> {
      await queryRunner.addColumn(
        'workflows',
        new TableColumn(integerColumn('setup_minutes', true)),
      );
      const workflows = (await queryRunner.query(
        'SELECT "id", "setup_time", "flows", "guide" FROM "workflows"',
      )) as Row[];
      for (const row of workflows) {
        const guide = row.guide ? (JSON.parse(row.guide as string) as Json | null) : null;
        await update(queryRunner, 'workflows', row.id, {
          setup_minutes:
            typeof row.setup_time === 'string' ? minutesFromText(row.setup_time) : null,
          flows: JSON.stringify((JSON.parse(row.flows as string) as Json[]).map(exactFlow)),
          guide: guide && JSON.stringify(withoutNulls(guide, ['youtubeUrl'])),
        });
      }
      await queryRunner.dropColumn('workflows', 'setup_time');
      await queryRunner.renameColumn('workflows', 'setup_minutes', 'setup_time');

      for (const row of (await queryRunner.query(
        `SELECT "id", "config", "secrets" FROM "integrations"
         WHERE "family" IN ('custom_api', 'mcp_server')`,
      )) as Row[]) {
        await rewriteAuth(queryRunner, 'integrations', row, renamedAuth);
      }
      for (const row of (await queryRunner.query(
        `SELECT "id", "config", "secrets" FROM "actions" WHERE "integration_id" IN
           (SELECT "id" FROM "integrations" WHERE "family" = 'custom_api')`,
      )) as Row[]) {
        await rewriteAuth(queryRunner, 'actions', row, renamedAuth, (config) =>
          withoutNulls(config, TOOL_SETTINGS),
        );
      }
      await queryRunner.query(
        `UPDATE "actions" SET "category" = 'custom' WHERE "category" IS NULL AND "integration_id" IN
           (SELECT "id" FROM "integrations" WHERE "family" = 'custom_api')`,
      );
    }

    async down(queryRunner: QueryRunner): Promise<void> {
      const toFormer = (authType: string, secrets: Json) => ({
        authType,
        secrets: formerAuth(authType, secrets),
      });
      for (const row of (await queryRunner.query(
        `SELECT "id", "config", "secrets" FROM "integrations"
         WHERE "family" IN ('custom_api', 'mcp_server')`,
      )) as Row[]) {
        await rewriteAuth(queryRunner, 'integrations', row, toFormer);
      }
      for (const row of (await queryRunner.query(
        `SELECT "id", "config", "secrets" FROM "actions" WHERE "integration_id" IN
           (SELECT "id" FROM "integrations" WHERE "family" = 'custom_api')`,
      )) as Row[]) {
        await rewriteAuth(queryRunner, 'actions', row, toFormer);
      }
      await queryRunner.renameColumn('workflows', 'setup_time', 'setup_minutes');
      await queryRunner.addColumn(
        'workflows',
        new TableColumn(varcharColumn('setup_time', 255, true)),
      );
      await queryRunner.query(
        'UPDATE "workflows" SET "setup_time" = CAST("setup_minutes" AS varchar(255))',
      );
      await queryRunner.dropColumn('workflows', 'setup_minutes');
    }
  };
}
