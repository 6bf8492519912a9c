set -e
export GIT_AUTHOR_NAME=dev GIT_AUTHOR_EMAIL=dev@example.org GIT_COMMITTER_NAME=dev GIT_COMMITTER_EMAIL=dev@example.org
export GIT_AUTHOR_DATE='2024-05-01T09:00:00Z' GIT_COMMITTER_DATE='2024-05-01T09:00:00Z'
git init -q -b master repo
cd repo
git config user.name dev
git config user.email dev@example.org
printf 'a tool\n' > README
git add README
git commit -qm "readme"
printf '[db]\nhost = localhost\n' > settings.ini
printf 'DB_PASSWORD=hunter2\n' > secrets.env
git add settings.ini secrets.env
git commit -qm "add settings"
