tar xzf bundle.tar.gz -O release-2.1/config/settings.ini > settings.ini
