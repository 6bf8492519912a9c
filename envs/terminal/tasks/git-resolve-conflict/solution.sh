cd proj
printf '# Changes\n- add export\n- bump version\n- fix crash on empty input\n' > CHANGELOG
git add CHANGELOG
git commit -q --no-edit
