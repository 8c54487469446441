/**
 * The fixed dataset behind the `news` demo server's web_search. Fictional stories on
 * reserved `.example` domains, in several regions and languages, so searches are
 * repeatable and never touch the network. `topics` adds search words that the title
 * and description may not contain (and split Japanese text into words).
 */

/** One search result in the dataset. */
export interface NewsItem {
  id: string;
  title: string;
  url: string;
  description: string;
  /** Region code: us, gb, de, fr, es, br, jp, in. */
  region: string;
  /** BCP 47 language tag. */
  language: string;
  /** ISO date. */
  publishedAt: string;
  topics: string[];
}

/** Regions present in the dataset. */
export const NEWS_REGIONS = ["us", "gb", "de", "fr", "es", "br", "jp", "in"] as const;

const item = (id: string, region: string, language: string, publishedAt: string, title: string, description: string, topics: string[]): NewsItem => ({
  id,
  title,
  url: `https://${region}.newswire.example/${publishedAt.slice(0, 7).replace("-", "/")}/${id}`,
  description,
  region,
  language,
  publishedAt,
  topics,
});

/** Every story, newest last. */
export const NEWS_ITEMS: readonly NewsItem[] = [
  item("us-port-strike", "us", "en", "2026-03-02", "East Coast port workers reach deal, ending week-long strike", "Container terminals from Boston to Houston reopen after dockworkers and operators agree on automation limits and pay.", ["shipping", "logistics", "labor", "ports"]),
  item("us-ai-chips", "us", "en", "2026-03-05", "Chipmakers race to meet demand for AI accelerators", "Foundries add capacity as cloud providers order record numbers of AI chips for data centers.", ["technology", "ai", "semiconductors"]),
  item("us-fed-rates", "us", "en", "2026-03-11", "Federal Reserve holds interest rates steady", "Policymakers keep rates unchanged and signal patience as inflation cools slowly.", ["economy", "interest rates", "inflation"]),
  item("us-storm-midwest", "us", "en", "2026-03-14", "Late-winter storm brings heavy snow to the Midwest", "Airports cancel hundreds of flights and parcel carriers warn of delivery delays across five states.", ["weather", "climate", "delivery", "travel"]),
  item("us-nba-playoffs", "us", "en", "2026-03-20", "Playoff race tightens in the final weeks of the NBA season", "Four teams are separated by a single game with ten matches left to play.", ["sports", "basketball"]),
  item("us-moon-lander", "us", "en", "2026-03-24", "Private lunar lander touches down near the Moon's south pole", "The robotic craft will search for water ice during a two-week mission.", ["space", "science", "moon"]),
  item("gb-rail-strike", "gb", "en", "2026-03-03", "Rail unions announce new strike dates", "Commuters face disruption as talks over pay and ticket office closures stall.", ["transport", "labor", "rail"]),
  item("gb-election-poll", "gb", "en", "2026-03-09", "Poll shows tight race ahead of local elections", "Council elections in May are expected to test the main parties in key cities.", ["politics", "elections"]),
  item("gb-heatwave-plan", "gb", "en", "2026-03-16", "Government publishes heatwave plan for summer", "Hospitals and schools get new guidance after last year's record temperatures.", ["climate", "health", "weather"]),
  item("gb-fintech-ipo", "gb", "en", "2026-03-22", "London fintech files for stock market listing", "The payments start-up aims to raise funds to expand into Europe and Asia.", ["economy", "technology", "finance"]),
  item("gb-premier-league", "gb", "en", "2026-03-29", "Title race goes to the wire in the Premier League", "The top two sides are level on points after a dramatic weekend of football.", ["sports", "football"]),
  item("de-bahn-delays", "de", "de", "2026-03-04", "Bahn meldet mehr Verspätungen im Fernverkehr", "Baustellen und Personalmangel sorgen für weniger pünktliche Züge als im Vorjahr.", ["verkehr", "bahn", "transport", "rail"]),
  item("de-energie-preise", "de", "de", "2026-03-08", "Energiepreise sinken zum Frühjahr", "Haushalte zahlen weniger für Strom und Gas, doch die Netzentgelte steigen.", ["wirtschaft", "energie", "economy", "energy"]),
  item("de-paket-boom", "de", "de", "2026-03-12", "Paketdienste melden Rekord beim Versand ins Ausland", "Kleine Händler verschicken mehr Pakete in die USA und nach Asien; Expressdienste profitieren.", ["versand", "pakete", "shipping", "logistik"]),
  item("de-wahl-umfrage", "de", "de", "2026-03-18", "Umfrage: Knappes Rennen vor der Landtagswahl", "Zwei Parteien liegen gleichauf, die Wahlbeteiligung könnte steigen.", ["politik", "wahlen", "elections"]),
  item("de-ki-gesetz", "de", "de", "2026-03-25", "Neue Regeln für künstliche Intelligenz in Behörden", "Verwaltungen müssen KI-Systeme künftig registrieren und prüfen lassen.", ["ki", "technologie", "ai", "technology"]),
  item("fr-greve-transports", "fr", "fr", "2026-03-05", "Grève dans les transports: trafic perturbé à Paris", "Métros et trains régionaux circulent au ralenti après un appel à la grève.", ["transports", "grève", "transport", "labor"]),
  item("fr-elections-municipales", "fr", "fr", "2026-03-15", "Élections municipales: les résultats du premier tour", "La participation progresse et plusieurs grandes villes basculent.", ["politique", "élections", "elections"]),
  item("fr-climat-vignes", "fr", "fr", "2026-03-19", "Le climat change la carte des vignobles", "Les viticulteurs plantent plus au nord pour échapper aux fortes chaleurs.", ["climat", "agriculture", "climate", "wine"]),
  item("fr-startup-ia", "fr", "fr", "2026-03-23", "Une start-up française lève des fonds pour son modèle d'IA", "Le laboratoire parisien veut concurrencer les grands modèles américains.", ["ia", "technologie", "ai", "technology"]),
  item("fr-rugby-tournoi", "fr", "fr", "2026-03-28", "Tournoi des Six Nations: la France termine en tête", "Les Bleus remportent le tournoi après une victoire nette au Stade de France.", ["sport", "rugby", "sports"]),
  item("es-turismo-record", "es", "es", "2026-03-06", "España espera otro año récord de turismo", "Las reservas para la primavera superan las del año pasado en las islas y la costa.", ["turismo", "economía", "travel", "economy"]),
  item("es-sequia-embalses", "es", "es", "2026-03-13", "Las lluvias alivian la sequía en los embalses", "Las reservas de agua suben tras semanas de tormentas en el sur.", ["clima", "agua", "climate", "weather"]),
  item("es-elecciones-encuesta", "es", "es", "2026-03-21", "Encuesta: ningún partido lograría mayoría", "Los sondeos anticipan negociaciones largas tras las próximas elecciones.", ["política", "elecciones", "elections"]),
  item("es-liga-clasico", "es", "es", "2026-03-27", "El clásico decide el liderato de la Liga", "Madrid y Barcelona llegan empatados a puntos al partido del domingo.", ["deportes", "fútbol", "sports", "football"]),
  item("br-safra-soja", "br", "pt", "2026-03-03", "Safra recorde de soja pressiona portos brasileiros", "Filas de navios crescem em Santos e Paranaguá com a exportação em alta.", ["agricultura", "portos", "shipping", "economy"]),
  item("br-amazonia-desmatamento", "br", "pt", "2026-03-10", "Desmatamento na Amazônia cai pelo terceiro ano", "Dados de satélite mostram redução da área derrubada na floresta.", ["meio ambiente", "amazônia", "climate", "environment"]),
  item("br-eleicoes-debate", "br", "pt", "2026-03-17", "Partidos preparam alianças para as eleições", "Negociações se intensificam a seis meses da votação.", ["política", "eleições", "elections"]),
  item("br-futebol-libertadores", "br", "pt", "2026-03-26", "Clubes brasileiros estreiam com vitória na Libertadores", "Três times do país vencem na primeira rodada do torneio continental.", ["esporte", "futebol", "sports", "football"]),
  item("jp-jishin-drill", "jp", "ja", "2026-03-01", "東京で大規模な地震訓練", "首都直下地震を想定し、鉄道会社や病院が避難手順を確認した。", ["地震", "防災", "earthquake", "safety"]),
  item("jp-yen-exports", "jp", "ja", "2026-03-09", "円安で輸出企業の利益が拡大", "自動車や電子部品メーカーが過去最高の決算を見込む。", ["経済", "円安", "economy", "exports"]),
  item("jp-sakura-forecast", "jp", "ja", "2026-03-12", "桜の開花予想、例年より早く", "暖かい冬の影響で、東京では三月中旬に開花する見込み。", ["桜", "天気", "weather", "climate"]),
  item("jp-robot-care", "jp", "ja", "2026-03-20", "介護ロボットの導入が進む", "人手不足を背景に、AIを使った見守りシステムが広がっている。", ["ロボット", "AI", "technology", "health", "ai"]),
  item("jp-baseball-wbc", "jp", "ja", "2026-03-30", "プロ野球が開幕、満員の球場", "新シーズンの開幕戦に多くのファンが詰めかけた。", ["野球", "スポーツ", "sports", "baseball"]),
  item("in-monsoon-forecast", "in", "en", "2026-03-04", "India's weather office forecasts a normal monsoon", "Farmers welcome the outlook after two years of uneven rainfall.", ["weather", "climate", "agriculture"]),
  item("in-ev-scooters", "in", "en", "2026-03-11", "Electric scooter sales double in Indian cities", "Cheaper batteries and new charging stations drive demand for two-wheelers.", ["technology", "electric vehicles", "economy"]),
  item("in-cricket-final", "in", "en", "2026-03-18", "India wins the one-day series in a last-over thriller", "A late partnership seals the win in the deciding match in Mumbai.", ["sports", "cricket"]),
  item("in-state-elections", "in", "en", "2026-03-24", "Campaigning begins for state elections in the south", "Parties promise jobs and welfare schemes ahead of the vote.", ["politics", "elections"]),
  item("in-ecommerce-logistics", "in", "en", "2026-03-28", "E-commerce firms expand same-day delivery to smaller towns", "New warehouses cut delivery times as online shopping spreads beyond the big cities.", ["logistics", "delivery", "shipping", "economy"]),
  item("us-food-delivery-fees", "us", "en", "2026-03-30", "Food delivery apps face scrutiny over fees", "City councils debate caps on commissions charged to restaurants.", ["food", "delivery", "economy", "restaurants"]),
];
