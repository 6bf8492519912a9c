cd repo
git rm -q --cached secrets.env
echo secrets.env >> .gitignore
git add .gitignore
git -c user.name=dev -c user.email=dev@example.org commit -q --amend --no-edit
