/**
 * One 10-step plan (releasing a service) written in English, German and Japanese, step for
 * step, for the bench that counts what plan text costs in each language. Every string is NFC
 * and follows the planning tools' Unicode rules, so `text: 'unicode'` stores it unchanged.
 */

/** A plan as the model would set it up: an objective and ten step titles. */
export interface LanguagePlan {
  /** The language, as the bench's rows name it. */
  readonly language: string;
  readonly objective: string;
  readonly titles: readonly string[];
  /** The note the model leaves when it finishes a step. */
  readonly note: string;
}

/** The plan in English: the rows' baseline. */
export const ENGLISH: LanguagePlan = {
  language: 'English',
  objective: 'Release version 2 of the billing service',
  titles: [
    'Review the open pull requests and merge the approved ones',
    'Add every user-facing change to the changelog',
    'Run the full test suite against the staging database',
    'Fix the failing invoice rounding test',
    'Translate the new error messages',
    'Bump the version number in the package manifest',
    'Build the release artifacts and sign them',
    'Deploy to staging and run the smoke tests',
    'Deploy to production during the maintenance window',
    'Announce the release to the support team',
  ],
  note: 'Done, nothing left open.',
};

/** The same plan in German (umlauts precomposed, as NFC has them). */
export const GERMAN: LanguagePlan = {
  language: 'German',
  objective: 'Version 2 des Abrechnungsdienstes veröffentlichen',
  titles: [
    'Offene Pull-Requests prüfen und die genehmigten zusammenführen',
    'Jede für Nutzer sichtbare Änderung ins Änderungsprotokoll eintragen',
    'Die gesamte Testsuite gegen die Staging-Datenbank ausführen',
    'Den fehlschlagenden Test zur Rundung von Rechnungsbeträgen beheben',
    'Die neuen Fehlermeldungen übersetzen',
    'Die Versionsnummer im Paketmanifest erhöhen',
    'Die Release-Artefakte bauen und signieren',
    'Auf Staging ausrollen und die Smoke-Tests ausführen',
    'Im Wartungsfenster in die Produktion ausrollen',
    'Das Release dem Support-Team ankündigen',
  ],
  note: 'Erledigt, nichts mehr offen.',
};

/** The same plan in Japanese. */
export const JAPANESE: LanguagePlan = {
  language: 'Japanese',
  objective: '請求サービスのバージョン2をリリースする',
  titles: [
    '未処理のプルリクエストを確認し、承認済みのものをマージする',
    'ユーザーに見えるすべての変更を変更履歴に追記する',
    'ステージングのデータベースに対してすべてのテストを実行する',
    '失敗している請求書の端数処理のテストを修正する',
    '新しいエラーメッセージを翻訳する',
    'パッケージマニフェストのバージョン番号を上げる',
    'リリース成果物をビルドして署名する',
    'ステージングにデプロイしてスモークテストを実行する',
    'メンテナンス時間帯に本番環境へデプロイする',
    'サポートチームにリリースを告知する',
  ],
  note: '完了。未解決の項目はありません。',
};

/** The three plans, English first. */
export const LANGUAGE_PLANS: readonly LanguagePlan[] = [ENGLISH, GERMAN, JAPANESE];
