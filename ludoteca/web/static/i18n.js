// The shell's translations: en and es catalogs, the chosen language, and <html lang>.
const LANGS = ["en", "es"];
const STORE_KEY = "ludoteca.lang";
const catalogs = { en: {}, es: {} };
let current = "en";

export function format(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** The form of a plural entry ({"one": "{n} crown", "other": "{n} crowns"}, CLDR's
 * categories as Intl.PluralRules names them) for the count `params.n`; `other` is the fallback. */
export function plural(entry, params, lang) {
  if (!entry || typeof entry !== "object") return entry;
  const n = Number(params?.n ?? 0);
  return entry[new Intl.PluralRules(lang).select(n)] ?? entry.other;
}

/** A translator over a {en: {...}, es: {...}} catalog in a language (falls back to English).
 * A message is a string, or plural forms chosen by the `n` parameter. */
export function translator(messages, lang) {
  return (key, params) => {
    const own = messages?.[lang]?.[key];
    const text = own !== undefined ? plural(own, params, lang) : plural(messages?.en?.[key], params, "en") ?? key;
    return format(text, params);
  };
}

export function t(key, params) {
  return translator(catalogs, current)(key, params);
}

/** `x` with `digits` decimals as the page's language writes it ("3.44", "3,44"), a negative
 * with a true minus sign. */
export function decimal(x, digits = 2, lang = current) {
  const rounded = Number(x.toFixed(digits)); // -0.001 rounds to 0, which has no sign
  const text = new Intl.NumberFormat(lang, { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false }).format(Math.abs(rounded));
  return rounded < 0 ? `−${text}` : text;
}

export function getLang() {
  return current;
}

export function languages() {
  return LANGS.slice();
}

function preferred() {
  const stored = localStorage.getItem(STORE_KEY);
  if (LANGS.includes(stored)) return stored;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGS.includes(base)) return base;
  }
  return "en";
}

/** Sets the language for the page, fetching its catalog the first time it is asked for (a page
 * loads only the catalogs it shows: its language, and English for what a catalog lacks);
 * `remember` keeps it for the next visit (not signed in). */
export async function setLang(lang, remember = true) {
  if (!LANGS.includes(lang)) return;
  await Promise.all([...new Set(["en", lang])].map(load));
  current = lang;
  if (remember) localStorage.setItem(STORE_KEY, lang);
  document.documentElement.lang = lang;
  document.title = t("app.title");
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
}

const loading = {}; // lang -> Promise of its catalog, fetched once

function load(lang) {
  loading[lang] ??= fetch(new URL(`./i18n/${lang}.json`, import.meta.url))
    .then((response) => response.json())
    .then((catalog) => { catalogs[lang] = catalog; }, (error) => { delete loading[lang]; throw error; });
  return loading[lang];
}

export async function initI18n() {
  await setLang(preferred(), false);
}
