import { person } from '../format.js';
import { hasRole, session } from '../session.js';

/**
 * Why a list of executions or workflows is empty and what to do, from the page's filters (its
 * hash) and the reader's role: a reader who is neither ADMIN nor AUDITOR sees only their own.
 * @param {string} resource `executions` or `workflows`
 * @param {string} create the label of the page's "new" button
 */
export function ownedListEmpty(resource, create) {
  const params = new URLSearchParams(location.hash.split('?')[1] ?? '');
  const status = params.get('status');
  const everyone = hasRole('ADMIN', 'AUDITOR') && params.get('scope') === 'all';
  const canCreate = hasRole('ADMIN', 'OPERATOR');
  if (status) return `No ${resource} ${everyone ? '' : 'of yours '}are ${status}. Choose “any status” to see the others.`;
  if (everyone) return `No one has started any ${resource} yet.${canCreate ? ` Start one with “${create}”.` : ''}`;
  if (hasRole('ADMIN', 'AUDITOR'))
    return `You have no ${resource} of your own. Choose “everyone’s ${resource}” to see all of them.${canCreate ? ` Or start one with “${create}”.` : ''}`;
  const role = session.me()?.role.toLowerCase().replace('_', ' ') ?? 'user';
  const yours = `You have no ${resource} yet: as ${/^[aeiou]/.test(role) ? 'an' : 'a'} ${role} you see only your own.`;
  return canCreate ? `${yours} Start one with “${create}”.` : `${yours} An operator starts them; an admin can give you a wider role.`;
}

/**
 * The owner of a listed run, by name: the API's `owner_name` when it gives one, the signed-in
 * user's own name, else a short id.
 * @param {{ owner_id: string }} item
 */
export function ownerOf(item) {
  const given = /** @type {{ owner_name?: string | null }} */ (item).owner_name;
  const me = session.me();
  if (given) return person({ id: item.owner_id, name: given, email: me?.id === item.owner_id ? me.email : null });
  return person({ id: item.owner_id, ...(me?.id === item.owner_id ? me : {}) });
}

/** Whether the list shows everyone's runs (then it has an Owner column). */
export function listsEveryone() {
  return hasRole('ADMIN', 'AUDITOR') && new URLSearchParams(location.hash.split('?')[1] ?? '').get('scope') === 'all';
}
