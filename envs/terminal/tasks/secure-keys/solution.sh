find deploy/keys -type d -exec chmod 700 {} +
find deploy/keys -type f -exec chmod 600 {} +
chmod 755 deploy/public
find deploy/public -type f -exec chmod 644 {} +
