// English: the frame around every view (the top bar, sign-in, changing a password) and the words of the shared
// parts (dialogs, copy buttons, breadcrumbs). The shape of every language's common words is this one's.
export const common = {
  brand: "Logistics portal",
  documentTitle: "Merchant portal · Logistics API",
  main: "Main",
  areas: { shipments: "Shipments", pricing: "Pricing", webhooks: "Webhooks", checkout: "Checkout", users: "Users" },
  account: "Account",
  changePassword: "Change password",
  signOut: "Sign out",
  loading: "Loading…",
  breadcrumb: "Breadcrumb",
  cancel: "Cancel",
  copy: "Copy",
  copied: "Copied.",
  selectedToCopy: "Selected: press Ctrl+C (or ⌘C) to copy.",

  portalTitle: "Merchant portal",
  signInAbout: "Sign in with the email and password your administrator gave you.",
  signInForm: "Sign in",
  whichShop: (email: string) => `${email} works for more than one shop. Which shop do you want to open?`,
  email: "Email",
  password: "Password",
  signIn: "Sign in",
  openShop: "Open this shop",
  otherEmail: "Use another email",

  chooseTitle: "Choose a new password",
  changeTitle: "Change your password",
  chooseAbout:
    "An administrator reset your password. Before you go on, choose a new password of your own: type the temporary password you were given, then your new password twice.",
  changeAbout:
    "Type your current password, then your new password twice. You stay signed in here; anywhere else you are signed in, you are signed out.",
  temporaryPassword: "Temporary password",
  currentPassword: "Current password",
  newPassword: (min: number) => `New password (at least ${min} characters)`,
  newPasswordAgain: "New password again",
  notSame: "The two new passwords are not the same: type the new password again.",
  changed: "Your password is changed. Use the new one the next time you sign in.",
  saveNewPassword: "Save my new password",
};
