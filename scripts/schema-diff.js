// Prints the SQL TypeORM would run to bring a migrated database in line with the entities, for both
// dialects: the starting point of a hand-reviewed migration. Usage: npm run build && node scripts/schema-diff.js sqlite|postgres
const path = require('path');
const root = path.join(__dirname, '..', 'dist/libs/database/src');
const { AppDataSource, buildDataSourceOptions, runMigrations } = require(root);
(async () => {
  const kind = process.argv[2];
  let db;
  if (kind === 'sqlite') db = { type: 'sqlite', path: ':memory:' };
  else
    db = {
      type: 'postgres',
      url: 'postgres://postgres@127.0.0.1:5432/test',
      schema: 'gen_' + process.pid,
    };
  if (kind !== 'sqlite') {
    const pg = require('pg');
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    await c.query(`CREATE SCHEMA ${db.schema}`);
    await c.end();
  }
  const ds = new AppDataSource(buildDataSourceOptions(db));
  await ds.initialize();
  await runMigrations(ds);
  const log = await ds.driver.createSchemaBuilder().log();
  for (const q of log.upQueries) console.log('UP  ' + q.query);
  for (const q of log.downQueries.reverse()) console.log('DOWN ' + q.query);
  await ds.destroy();
  if (kind !== 'sqlite') {
    const pg = require('pg');
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    await c.query(`DROP SCHEMA ${db.schema} CASCADE`);
    await c.end();
  }
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
