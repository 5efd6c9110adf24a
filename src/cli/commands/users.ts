// `contact-sheet users …`: the site's accounts from the server's shell, through the same service as
// the admin pages (the same rules: e-mail and password checks, never the last active admin demoted or
// disabled; every change audited, with "command-line" as the actor).
import { randomBytes } from "node:crypto";
import { Argument, type Command, Option } from "commander";
import { ROLES, type Role } from "@/src/access/roles";
import type { DatabaseHandle } from "@/src/db/client";
import { normalizeEmail } from "@/src/users/normalize-email";
import { createUserSchema, passwordSchema, type PublicUser } from "@/src/users/users.schemas";
import { CommandFailure } from "../command-failure";
import { loadServer } from "../load-server";

/** The account named by e-mail (in any case) or id. */
async function findUser(db: DatabaseHandle, who: string): Promise<PublicUser> {
  const { users: service, COMMAND_LINE_ACTOR } = await loadServer();
  const users = await service.listUsersForAdmin(db, COMMAND_LINE_ACTOR);
  const email = normalizeEmail(who);
  const user = users.find((candidate) => candidate.id === who || candidate.email === email);
  if (!user) throw new CommandFailure(`No user has the e-mail or id ${who}.`);
  return user;
}

/** The first line of standard input: a password given without it showing in the process list. */
async function readPasswordFromStdin(): Promise<string> {
  let text = "";
  for await (const chunk of process.stdin) text += String(chunk);
  return text.split(/\r?\n/)[0] ?? "";
}

/** A password given on stdin, checked by the site's rules; or a new random one, printed once. */
async function choosePassword(fromStdin: boolean | undefined): Promise<{ password: string; generated: boolean }> {
  if (!fromStdin) return { password: randomBytes(15).toString("base64url"), generated: true };
  const parsed = passwordSchema.safeParse(await readPasswordFromStdin());
  if (!parsed.success) throw new CommandFailure(`The password is refused: ${parsed.error.issues[0]?.message ?? "invalid"}`, 2);
  return { password: parsed.data, generated: false };
}

function describeUser(user: PublicUser): string {
  return `${user.email}  ${user.name}  ${user.role}${user.isDisabled ? "  (disabled)" : ""}`;
}

function roleOption(): Option {
  return new Option("--role <role>", "viewer, editor or admin").choices([...ROLES]);
}

export function addUsersCommand(program: Command): void {
  const users = program
    .command("users")
    .description("Manage the site's accounts on the server (reads the same settings as npm start)");

  users
    .command("list")
    .description("Every account: e-mail, name, role, disabled or not")
    .option("--json", "one JSON object per line")
    .action(async (options: { json?: boolean }) => {
      const { users: service, withServerDatabase, COMMAND_LINE_ACTOR } = await loadServer();
      await withServerDatabase(async (db) => {
        for (const user of await service.listUsersForAdmin(db, COMMAND_LINE_ACTOR)) console.log(options.json ? JSON.stringify(user) : describeUser(user));
      });
    });

  users
    .command("create")
    .description("Make an account with a password (a random one, printed once, unless --password-stdin)")
    .requiredOption("--email <email>", "their e-mail address (how they sign in)")
    .requiredOption("--name <name>", "the name shown on their photos")
    .addOption(roleOption().default("viewer"))
    .option("--password-stdin", "read the password from the first line of standard input")
    .action(async (options: { email: string; name: string; role: Role; passwordStdin?: boolean }) => {
      const { password, generated } = await choosePassword(options.passwordStdin);
      const input = createUserSchema.safeParse({ email: options.email, name: options.name, role: options.role, password });
      if (!input.success) throw new CommandFailure(`Cannot create the user: ${input.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ")}`, 2);
      const { users: service, withServerDatabase, COMMAND_LINE_ACTOR } = await loadServer();
      await withServerDatabase(async (db) => {
        const user = await service.createUser(db, COMMAND_LINE_ACTOR, input.data);
        console.log(`Created ${describeUser(user)}`);
        if (generated) console.log(`Password: ${password}\n(shown once; they can change it under Account)`);
      });
    });

  users
    .command("set-role")
    .description("Change an account's role (signs them out everywhere)")
    .argument("<user>", "e-mail or id")
    .addArgument(new Argument("<role>", "the new role").choices([...ROLES]))
    .action(async (who: string, role: Role) => {
      const { users: service, withServerDatabase, COMMAND_LINE_ACTOR } = await loadServer();
      await withServerDatabase(async (db) => {
        const user = await service.updateUserByAdmin(db, COMMAND_LINE_ACTOR, (await findUser(db, who)).id, { role });
        console.log(`Now ${describeUser(user)}`);
      });
    });

  users
    .command("disable")
    .description("Stop an account from signing in (signs them out everywhere; --enable undoes it)")
    .argument("<user>", "e-mail or id")
    .option("--enable", "let the account sign in again")
    .action(async (who: string, options: { enable?: boolean }) => {
      const { users: service, withServerDatabase, COMMAND_LINE_ACTOR } = await loadServer();
      await withServerDatabase(async (db) => {
        const user = await service.updateUserByAdmin(db, COMMAND_LINE_ACTOR, (await findUser(db, who)).id, { disabled: !options.enable });
        console.log(`Now ${describeUser(user)}`);
      });
    });

  users
    .command("reset-password")
    .description("Give an account a new password (a random one, printed once, unless --password-stdin); signs them out everywhere")
    .argument("<user>", "e-mail or id")
    .option("--password-stdin", "read the password from the first line of standard input")
    .action(async (who: string, options: { passwordStdin?: boolean }) => {
      const { password, generated } = await choosePassword(options.passwordStdin);
      const { users: service, withServerDatabase, COMMAND_LINE_ACTOR } = await loadServer();
      await withServerDatabase(async (db) => {
        const user = await findUser(db, who);
        await service.resetPasswordByAdmin(db, COMMAND_LINE_ACTOR, user.id, password);
        console.log(`New password set for ${user.email}; their sessions have ended.`);
        if (generated) console.log(`Password: ${password}\n(shown once)`);
      });
    });
}
