/**
 * Text from outside the extension (the model's titles and paths, crash reports, a tracker's or a
 * model server's error, a workspace's settings) made safe to show in a notification. VS Code
 * turns `[label](command:...)` (also `https://` and `file:` targets) in a notification's message
 * into a link that runs the command when clicked, and it knows no escape for that syntax (a
 * backslash is shown, and the link still made). A link needs `](` right after its label, so a
 * space put between the two keeps the text readable and makes no link.
 */
export function noLinks(text: string): string {
  return text.replace(/\]\(/g, '] (');
}
