tar czf backup.tar.gz --exclude='*.tmp' docs
