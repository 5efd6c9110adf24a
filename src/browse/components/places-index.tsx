import type { PlaceCountry } from "../places.service";

/** "1 photo", "12 photos". */
function photoCount(count: number): string {
  return `${count.toLocaleString("en")} ${count === 1 ? "photo" : "photos"}`;
}

/**
 * /places: each country a section, its regions in a list, each region's towns after it with their
 * counts. Places whose region or town is not known read "Elsewhere in …", after the named ones.
 * Each named town links to its photos (`searchHrefOf`: the page passes the `place:` search).
 */
export function PlacesIndex({ countries, searchHrefOf }: { countries: PlaceCountry[]; searchHrefOf: (placeName: string) => string }) {
  return (
    <div className="places-index" data-testid="places-index">
      {countries.map((country) => (
        <section key={country.code} className="places-country" aria-labelledby={`place-${country.code}`} data-testid="places-country">
          <h2 id={`place-${country.code}`} className="places-country-title">
            <span>{country.name}</span>
            <span className="places-count muted">{photoCount(country.count)}</span>
          </h2>
          <ul className="places-regions">
            {country.regions.map((region) => (
              <li key={region.name ?? ""} className="places-region">
                <p className="places-region-title">
                  <span>{region.name ?? `Elsewhere in ${country.name}`}</span>
                  <span className="places-count muted">{photoCount(region.count)}</span>
                </p>
                <ul className="places-cities" aria-label={`Towns in ${region.name ?? country.name}`}>
                  {region.cities.map((city) => (
                    <li key={city.name ?? ""} className="places-city" data-testid="places-city">
                      {city.name === null ? (
                        <span>{`Elsewhere in ${region.name ?? country.name}`}</span>
                      ) : (
                        <a className="places-city-link" href={searchHrefOf(city.name)}>
                          {city.name}
                        </a>
                      )}{" "}
                      <span className="places-count muted">{city.count.toLocaleString("en")}</span>
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
