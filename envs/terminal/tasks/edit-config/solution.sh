sed -i -e 's/^port = .*/port = 8081/' -e 's/^debug = .*/debug = false/' app.conf
