// English: the Users area's own words (the roles' names are in statuses.ts).
export const users = {
  title: "Users",
  about: "The people who sign in to this portal for your shop.",
  email: "Email",
  role: "Role",
  added: "Added",
  actions: "Actions",
  you: " (you)",
  changeYours: "Change your password",
  resetOf: (email: string) => `Reset password of ${email}`,
  reset: "Reset password",
  removeOf: (email: string) => `Remove ${email}`,
  remove: "Remove",
  resetDone: (email: string) =>
    `Temporary password set: ${email} is signed out now, and must choose a new password at their next sign-in. Give them the temporary password yourself.`,
  removed: (email: string) => `${email} was removed: they were signed out and can no longer sign in.`,

  added1: (email: string) => `${email} can now sign in. Give them the password yourself: it is not shown again.`,
  newUser: "New user",
  addTitle: "Add a user",
  newEmail: "Email of the new user",
  initialPassword: "Initial password",
  rolesAbout: (min: number, admin: string, staff: string) =>
    `The password needs at least ${min} characters. “${admin}” can also manage the users here; “${staff}” can do everything else.`,
  add: "Add user",

  yourRoleNow: (role: string) => `Your role is now ${role}. Sign in again to go on.`,
  roleNow: (email: string, role: string) =>
    `The role of ${email} is now ${role}. They were signed out, and sign in again with their own password.`,
  roleOf: (email: string) => `Role of ${email}`,
  saveRoleOf: (email: string) => `Save role of ${email}`,
  saveRole: "Save role",

  removeQuestion: (email: string) => `Remove ${email}?`,
  removeUser: "Remove user",
  removeYourself: "You are signed out at once and can no longer sign in to this shop's portal.",
  removeThem: "They are signed out at once and can no longer sign in.",

  resetQuestion: (email: string) => `Reset the password of ${email}?`,
  setTemporary: "Set temporary password",
  resetAbout:
    "Type a temporary password and give it to them yourself: the portal sends no email. They are signed out now, and at their next sign-in they must choose a new password of their own.",
  temporaryPassword: (min: number) => `Temporary password (at least ${min} characters)`,
};
