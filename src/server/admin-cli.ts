// npm run admin -- make-admin EMAIL
// Makes an existing account an admin, on the configured database (DATABASE_URL, or the embedded
// one in DATA_DIR, whether or not the store is running).
import { ConfigError, loadConfig } from "./config";
import { openDatabase } from "./db/database";
import { createUserService } from "./users/service";

const usage = "usage: npm run admin -- make-admin EMAIL";

async function run(args: string[]): Promise<number> {
  const [command, email] = args;
  if (command !== "make-admin" || !email) {
    console.error(usage);
    return 2;
  }
  const config = loadConfig();
  const quiet = { info: () => {}, warn: (m: string) => console.warn(m) };
  const database = await openDatabase({ ...config, attach: true }, quiet);
  try {
    if (await createUserService(database.db).makeAdmin(email)) {
      console.log(`${email} is now an admin.`);
      return 0;
    }
    console.error(`No account with the email ${email}: sign up first, then run this again.`);
    return 1;
  } finally {
    await database.close();
  }
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof ConfigError ? err.message : err);
    process.exit(1);
  },
);
