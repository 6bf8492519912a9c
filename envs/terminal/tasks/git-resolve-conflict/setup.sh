set -e
export GIT_AUTHOR_NAME=dev GIT_AUTHOR_EMAIL=dev@example.org GIT_COMMITTER_NAME=dev GIT_COMMITTER_EMAIL=dev@example.org
export GIT_AUTHOR_DATE='2024-06-01T12:00:00Z' GIT_COMMITTER_DATE='2024-06-01T12:00:00Z'
git init -q -b master proj
cd proj
git config user.name dev
git config user.email dev@example.org
printf '# Changes\n' > CHANGELOG
git add CHANGELOG
git commit -qm "start changelog"
git checkout -q -b feature
printf '# Changes\n- add export\n- fix crash on empty input\n' > CHANGELOG
git commit -qam "feature entries"
git checkout -q master
printf '# Changes\n- bump version\n' > CHANGELOG
git commit -qam "master entry"
git merge -q feature >/dev/null 2>&1 || true
test -f .git/MERGE_HEAD
