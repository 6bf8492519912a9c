set -e
export GIT_AUTHOR_NAME=dev GIT_AUTHOR_EMAIL=dev@example.org GIT_COMMITTER_NAME=dev GIT_COMMITTER_EMAIL=dev@example.org
export GIT_AUTHOR_DATE='2024-03-01T10:00:00Z' GIT_COMMITTER_DATE='2024-03-01T10:00:00Z'
git init -q -b master site
cd site
git config user.name dev
git config user.email dev@example.org
printf '<h1>Home</h1>\n' > index.html
git add index.html
git commit -qm "home page"
git checkout -q --detach
printf '<h1>Home</h1>\n<a href="about.html">About</a>\n' > index.html
printf '<h1>About us</h1>\n' > about.html
git add index.html about.html
export GIT_AUTHOR_DATE='2024-03-02T10:00:00Z' GIT_COMMITTER_DATE='2024-03-02T10:00:00Z'
git commit -qm "about page"
git checkout -q master
