import { formatByteSize } from "../byte-size";
import { type StorageUsage, totalBytes } from "../storage-usage.service";

/**
 * The dashboard's "Storage used": the total, then originals, variants and the other files kept
 * beside photos (RAWs, motion clips, videos' playable copies), and for an admin a row per user.
 * Server-rendered; the figures come from the sizes recorded when each file was stored.
 */
export function StorageUsagePanel({ usage, perUser }: { usage: StorageUsage; perUser: boolean }) {
  const { total } = usage;
  return (
    <section aria-labelledby="storage-used-heading" data-testid="storage-used">
      <h2 id="storage-used-heading">Storage used</h2>
      <dl className="stats">
        <div className="stat">
          <dt className="stat-label">{perUser ? "All photos" : "Your photos"}</dt>
          <dd className="stat-value" data-testid="storage-total" data-bytes={totalBytes(total)}>
            {formatByteSize(totalBytes(total))}
          </dd>
        </div>
        <div className="stat">
          <dt className="stat-label">Originals</dt>
          <dd className="stat-value" data-testid="storage-originals" data-bytes={total.originalBytes}>
            {formatByteSize(total.originalBytes)}
          </dd>
        </div>
        <div className="stat">
          <dt className="stat-label">Variants</dt>
          <dd className="stat-value" data-testid="storage-variants" data-bytes={total.variantBytes}>
            {formatByteSize(total.variantBytes)}
          </dd>
        </div>
        <div className="stat">
          <dt className="stat-label">Other files</dt>
          <dd className="stat-value" data-testid="storage-companions" data-bytes={total.companionBytes}>
            {formatByteSize(total.companionBytes)}
          </dd>
        </div>
      </dl>
      <p className="muted storage-note">
        {describePhotos(total.photoCount)}, the trash included (its files stay until it is emptied). Variants are the sizes made for screens, in AVIF, WebP and JPEG; other files are RAWs kept beside their JPEGs, the clips of motion photos and the copies of videos made to play in any browser.
      </p>
      {perUser && usage.owners.length > 0 && (
        <table className="table storage-table" data-testid="storage-per-user">
          <caption className="visually-hidden">Storage used per user</caption>
          <thead>
            <tr>
              <th scope="col">User</th>
              <th scope="col" className="numeric">
                Photos
              </th>
              <th scope="col" className="numeric">
                Originals
              </th>
              <th scope="col" className="numeric">
                Variants
              </th>
              <th scope="col" className="numeric">
                Other files
              </th>
              <th scope="col" className="numeric">
                Total
              </th>
            </tr>
          </thead>
          <tbody>
            {usage.owners.map((owner) => (
              <tr key={owner.ownerId} data-owner-id={owner.ownerId}>
                <th scope="row" className="user-cell-name">
                  {owner.ownerName}
                </th>
                <td data-label="Photos" className="numeric">
                  {owner.photoCount}
                </td>
                <td data-label="Originals" className="numeric" data-bytes={owner.originalBytes}>
                  {formatByteSize(owner.originalBytes)}
                </td>
                <td data-label="Variants" className="numeric" data-bytes={owner.variantBytes}>
                  {formatByteSize(owner.variantBytes)}
                </td>
                <td data-label="Other files" className="numeric" data-bytes={owner.companionBytes}>
                  {formatByteSize(owner.companionBytes)}
                </td>
                <td data-label="Total" className="numeric" data-bytes={totalBytes(owner)}>
                  {formatByteSize(totalBytes(owner))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function describePhotos(count: number): string {
  return count === 1 ? "1 photo" : `${count} photos`;
}
